// A mesh class whose constructor and setup are defined in mesh.cu, its
// sizes read through getters that return references (LULESH's shape).
#pragma once
#include <vector>

struct options {
    int steps;
    int nx;
};

void parse_options(int argc, char *argv[], options *opts);

class Mesh {
  public:
    Mesh(int ranks, int nx);
    int &num_elems() { return m_num_elems; }
    int &num_nodes() { return m_num_nodes; }
    std::vector<double> x;

  private:
    void allocate(int nodes);
    int m_num_elems;
    int m_num_nodes;
};
