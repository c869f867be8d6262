// A class whose sizes its setters hold, defined in sim.cu; main.cu builds
// the object and calls its setters and the method that launches.
class Sim {
    int npart_;
    int nsteps_;
  public:
    Sim();
    void set_npart(const int &N) { npart_ = N; }
    int get_npart() const { return npart_; }
    void set_nsteps(int n) { nsteps_ = n; }
    int get_nsteps() const { return nsteps_; }
    void SetNumberOfParticles(int N);
    void Start();
};
