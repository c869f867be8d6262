/* demangle: Itanium C++ ABI names (what nvcc emits for kernels) to readable
 * signatures, through libstdc++'s __cxa_demangle. */
#ifndef GPULINT_DEMANGLE_H
#define GPULINT_DEMANGLE_H

/* Returns a malloc'd string: the demangled name, or a copy of `mangled`
 * when it is not a mangled C++ name (extern "C" kernels). */
char *demangle(const char *mangled);

#endif
