// A class whose getters hand out its fields by non-const reference (LULESH's
// Domain: `Index_t &numElem() { return m_numElem; }`), built with new from a
// size on the command line and handed to the launching function by
// reference. Reading a getter's result does not change the object; writing
// through one does (resize below), and that field then has no value.
#include <cstdlib>

typedef int Index_t;

class Domain {
public:
    Domain(Index_t nx);
    Index_t &numElem() { return m_numElem; }
    Index_t &numNode() { return m_numNode; }
    double *x;

private:
    Index_t m_numElem, m_numNode;
};

Domain::Domain(Index_t nx)
{
    Index_t edgeNodes = nx + 1;
    m_numElem = nx * nx * nx;
    m_numNode = edgeNodes * edgeNodes * edgeNodes;
    x = NULL;
}

__global__ void scale(double *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0;
}

static void elems(Domain &domain)
{
    Index_t numElem = domain.numElem();
    int block = 256;
    scale<<<(numElem + block - 1) / block, block>>>(domain.x, numElem);
}

static void nodes(Domain &domain)
{
    Index_t numNode = domain.numNode();
    scale<<<(numNode + 127) / 128, 128>>>(domain.x, numNode);
}

static void resize(Domain &domain, int n)
{
    domain.numNode() = n;
}

int main(int argc, char **argv)
{
    int nx = 30;
    if (argc > 2)
        nx = atoi(argv[2]);
    Domain *locDom = new Domain(nx);
    for (int it = 0; it < 10; it++) {
        elems(*locDom);
        nodes(*locDom);
    }
    resize(*locDom, atoi(argv[1]));
    return 0;
}
