#include "rng.h"

void rng_seed(rng* r, uint64_t seed) { r->state = seed; }

uint64_t rng_seed_for(uint64_t seed, const char* name) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a over the name */
  for (const char* c = name; *c; ++c) h = (h ^ (unsigned char)*c) * 1099511628211ull;
  rng mixer;
  rng_seed(&mixer, seed ^ h);
  return rng_next(&mixer);
}

uint64_t rng_next(rng* r) {
  uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t rng_below(rng* r, uint64_t n) {
  /* Rejecting the top partial range keeps every value equally likely. */
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = rng_next(r);
  while (x >= limit);
  return x % n;
}
