#include "random_position.h"

#include <stdio.h>
#include <string.h>

/* Far more than any material needs (up to 5 pieces the least decided one,
 * KKvKKK, is decided in about a tenth of its positions), yet a bound, so a
 * material without a win cannot hang the run. */
#define MAX_DRAWS 1000000

static dtb_status none_found(const char* material, dtb_error* error) {
  if (error) {
    memset(error, 0, sizeof *error);
    error->status = DTB_INVALID_ARGUMENT;
    error->block = -1;
    snprintf(error->material, sizeof error->material, "%s", material);
    snprintf(error->message, sizeof error->message, "no won position of %s among %d random ones", material,
             MAX_DRAWS);
  }
  return DTB_INVALID_ARGUMENT;
}

dtb_status random_won_position(dtb_tables* tables, const char* material, rng* r, dtb_position* out,
                               dtb_side* winner, dtb_error* error) {
  /* Black to move is numbered by the colour reversal of the reversed
   * material: the same placements, so the same count. */
  uint64_t size = 0;
  dtb_status s = dtb_material_size(material, &size, error);
  if (s != DTB_OK) return s;
  for (int draw = 0; draw < MAX_DRAWS; ++draw) {
    const dtb_side side = rng_below(r, 2) ? DTB_BLACK : DTB_WHITE;
    if ((s = dtb_material_positions(material, side, rng_below(r, size), out, 1, error)) != DTB_OK) return s;
    dtb_wdl value = DTB_DRAW;
    if ((s = dtb_probe_wdl(tables, out, &value, error)) != DTB_OK) return s;
    if (value == DTB_DRAW) continue;
    const dtb_side other = side == DTB_WHITE ? DTB_BLACK : DTB_WHITE;
    *winner = value == DTB_WIN ? side : other;
    return DTB_OK;
  }
  return none_found(material, error);
}
