/* byteunpack: the bytes ptxas unpacks from a four-byte vector load. PTX's
 * `ld.v4.u8 {%rs1, %rs2, %rs3, %rs4}` is one 32-bit LDG in SASS; each byte
 * an instruction then reads as a number costs one PRMT (LOP3 for the low
 * byte) to take it out of the register: all-pairs-distance's k3 loop (in
 * tests/data/hecbench/sass) has 8 LDGs, 24 PRMTs and 8 LOP3s where its PTX
 * has 8 loads. A byte only stored again (a copy of a uchar4) is not
 * unpacked. Pure. */
#ifndef GPULINT_ANALYSIS_BYTEUNPACK_H
#define GPULINT_ANALYSIS_BYTEUNPACK_H

#include <stddef.h>

#include "analysis/timing/imix.h"

/* Sets unpacked on each four-byte vector load of one PTX function's
 * in[0..n): its bytes that an instruction other than a store reads. */
void byteunpack_mark(imix_insn *in, size_t n);

#endif
