// Another unit: the object main builds and sets, handed on as the object
// the method Start is called on.
#include <cstdlib>
#include "sim.h"
int main(int argc, char **argv) {
    Sim sim;
    if (argc > 1) {
        int n = atoi(argv[1]);
        sim.SetNumberOfParticles(n);
    }
    sim.Start();
    return 0;
}
