/* Rare arms: a math function's code for arguments real data seldom has
 * (an infinite argument; sin and cos past 2^31, or 105615 in float, with
 * the Payne-Hanek reduction) runs on no warp in the count, as ptxcost
 * counts division's fast path. icount calls these while it places its
 * blocks (PTX only). Pure. */
#ifndef GPULINT_RAREARM_H
#define GPULINT_RAREARM_H

#include <stdbool.h>

#include "analysis/timing/icfg.h"

/* Places both arms of block k's branch where one is rare: that one at no
 * warp, the other at k's count. Whether it placed a block. */
bool rare_place_arms(code *c, int k);

/* Places a join whose ways in are all placed and all but one at no warp,
 * at that one's count. Whether it placed a block. */
bool rare_place_lone_joins(code *c);

/* After the guess: a guessed rare arm, and a guessed block every way in
 * to which from before it runs on no warp, run on none. */
void rare_zero_arms(code *c);

#endif
