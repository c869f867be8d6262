/* cusrc_decls: declarations that nvcc's headers give and clang's CUDA
 * headers lack, handed to libclang only (as a file that exists nowhere on
 * disk, -include'd first). Without them one call such as
 * `__stcs(out + i, v)` is an error and clang drops the statement, so the
 * store and everything in its expression go uncounted. Only declarations:
 * libclang parses, it never generates code. */
#include <string.h>

#include "cusrc/cusrc_int.h"

/* The load and store functions with cache hints of the CUDA C++
 * Programming Guide ("Load Functions Using Cache Hints", "Store Functions
 * Using Cache Hints"): clang-22 declares __ldcg, __ldcs, __ldcv and __stwt
 * (and __ldg through the toolkit's headers), not these. */
#define HINTS(T)                                                                                   \
    "__device__ " T " __ldca(const " T " *);\n"                                                    \
    "__device__ " T " __ldlu(const " T " *);\n"                                                    \
    "__device__ void __stcg(" T " *, " T ");\n"                                                    \
    "__device__ void __stcs(" T " *, " T ");\n"                                                    \
    "__device__ void __stwb(" T " *, " T ");\n"

/* nvcc's headers give host code min and max of floating point
 * (crt/math_functions.hpp); clang's give them to device code only, so a
 * host `max(a, 1.0f)` (cuda-samples' transpose sizes its work with one) is
 * an error and the statement is lost. */
#define HOST_MINMAX(A, B, R)                                                                       \
    "__host__ " R " max(" A ", " B ");\n"                                                          \
    "__host__ " R " min(" A ", " B ");\n"

/* And of integers, signed, unsigned and mixed, at every width, each pair
 * as crt/math_functions.hpp declares it: without them a host `min(W, n)`
 * of two ints finds only the floating-point ones, and is ambiguous. */
#define HOST_INT_MINMAX                                                                            \
    HOST_MINMAX("int", "int", "int")                                                               \
    HOST_MINMAX("unsigned int", "unsigned int", "unsigned int")                                    \
    HOST_MINMAX("int", "unsigned int", "unsigned int")                                             \
    HOST_MINMAX("unsigned int", "int", "unsigned int")                                             \
    HOST_MINMAX("long", "long", "long")                                                            \
    HOST_MINMAX("unsigned long", "unsigned long", "unsigned long")                                 \
    HOST_MINMAX("long", "unsigned long", "unsigned long")                                          \
    HOST_MINMAX("unsigned long", "long", "unsigned long")                                          \
    HOST_MINMAX("long long", "long long", "long long")                                             \
    HOST_MINMAX("unsigned long long", "unsigned long long", "unsigned long long")                  \
    HOST_MINMAX("long long", "unsigned long long", "unsigned long long")                           \
    HOST_MINMAX("unsigned long long", "long long", "unsigned long long")

/* nvcc 12.8's scoped atomics (CUDA C++ Programming Guide, "__nv_atomic_*
 * Functions"): builtins of nvcc, their order and scope constants in
 * crt/device_functions.h under nvcc alone. CUTLASS's sub-byte references
 * read through __nv_atomic_load_n; without these the whole file fails to
 * parse in libclang. */
#define NV_ATOMICS                                                                                 \
    "enum { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELEASE,\n" \
    "       __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_SEQ_CST };\n"                                         \
    "enum { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER,\n"       \
    "       __NV_THREAD_SCOPE_DEVICE, __NV_THREAD_SCOPE_SYSTEM };\n"                               \
    "template <class T> __device__ T __nv_atomic_load_n(const T *, int, int = 4);\n"               \
    "template <class T> __device__ void __nv_atomic_load(const T *, T *, int, int = 4);\n"         \
    "template <class T> __device__ void __nv_atomic_store_n(T *, T, int, int = 4);\n"              \
    "template <class T> __device__ void __nv_atomic_store(T *, T *, int, int = 4);\n"              \
    "template <class T> __device__ T __nv_atomic_exchange_n(T *, T, int, int = 4);\n"              \
    "template <class T> __device__ void __nv_atomic_exchange(T *, T *, T *, int, int = 4);\n"      \
    "template <class T> __device__ bool __nv_atomic_compare_exchange_n(T *, T *, T, bool, int,\n"  \
    "                                                                   int, int = 4);\n"          \
    "template <class T> __device__ bool __nv_atomic_compare_exchange(T *, T *, T *, bool, int,\n"  \
    "                                                                int, int = 4);\n"             \
    "template <class T> __device__ T __nv_atomic_fetch_add(T *, T, int, int = 4);\n"               \
    "template <class T> __device__ T __nv_atomic_fetch_sub(T *, T, int, int = 4);\n"               \
    "template <class T> __device__ T __nv_atomic_fetch_and(T *, T, int, int = 4);\n"               \
    "template <class T> __device__ T __nv_atomic_fetch_or(T *, T, int, int = 4);\n"                \
    "template <class T> __device__ T __nv_atomic_fetch_xor(T *, T, int, int = 4);\n"               \
    "template <class T> __device__ T __nv_atomic_fetch_min(T *, T, int, int = 4);\n"               \
    "template <class T> __device__ T __nv_atomic_fetch_max(T *, T, int, int = 4);\n"               \
    "__device__ void __nv_atomic_thread_fence(int, int = 4);\n"

/* nvcc defines __CUDACC__ as 1; clang's CUDA wrapper defines it empty, so
 * a program's `#if __CUDACC__` (gdt's vector headers, HeCBench's ssim) is
 * a syntax error in libclang and the operators it guards are lost. */
#define CUDACC_AS_NVCC "#undef __CUDACC__\n#define __CUDACC__ 1\n"

/* A system header to libclang: its functions are intrinsics, not the
 * project's code whose bodies are missing. */
static const char decls[] =
    "#pragma once\n"
    "#pragma clang system_header\n"
    "#if defined(__CUDA__) && defined(__cplusplus)\n" HINTS("char") HINTS("signed char")
        HINTS("short") HINTS("int") HINTS("long long") HINTS("unsigned char")
            HINTS("unsigned short") HINTS("unsigned int") HINTS("unsigned long long") HINTS("float")
                HINTS("double") HINTS("char2") HINTS("char4") HINTS("short2") HINTS("short4")
                    HINTS("int2") HINTS("int4") HINTS("longlong2") HINTS("uchar2") HINTS("uchar4")
                        HINTS("ushort2") HINTS("ushort4") HINTS("uint2") HINTS("uint4")
                            HINTS("ulonglong2") HINTS("float2") HINTS("float4") HINTS("double2")
                                HOST_MINMAX("float", "float", "float")
                                    HOST_MINMAX("double", "double", "double")
                                        HOST_MINMAX("float", "double", "double")
                                            HOST_MINMAX("double", "float", "double")
                                                HOST_INT_MINMAX NV_ATOMICS CUDACC_AS_NVCC
    "#endif\n";

const char cusrc_decls_path[] = "/gpulint-virtual/gpulint_cuda_decls.h";

struct CXUnsavedFile cusrc_decls_file(void)
{
    struct CXUnsavedFile f = {cusrc_decls_path, decls, (unsigned long)strlen(decls)};
    return f;
}
