#include "mesh.h"

Mesh::Mesh(int ranks, int nx)
{
    int edge_nodes = nx + 1;
    m_num_elems = nx * nx * nx;
    m_num_nodes = edge_nodes * edge_nodes * edge_nodes;
    allocate(num_nodes() / ranks);
}

void Mesh::allocate(int nodes)
{
    x.resize(nodes);
}
