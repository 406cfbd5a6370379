/* A small deterministic random number generator (splitmix64): the same
 * --seed replays the same positions and the same random defence, on every
 * platform (rand() would differ between C libraries). */
#ifndef PLAY_ENDING_RNG_H
#define PLAY_ENDING_RNG_H

#include <stdint.h>

typedef struct rng {
  uint64_t state;
} rng;

void rng_seed(rng* r, uint64_t seed);

/* A seed of its own for each name (a material), so that playing one material
 * alone replays exactly the games it gets in a run over many. */
uint64_t rng_seed_for(uint64_t seed, const char* name);

uint64_t rng_next(rng* r);

/* Uniform in 0..n-1; n must be positive. */
uint64_t rng_below(rng* r, uint64_t n);

#endif
