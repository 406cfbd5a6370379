/* Random won positions of a material, from the C API alone: draw a side to
 * move and an index among the material's positions (dtb_material_positions),
 * probe it, and keep it if it is decided, i.e. one side wins. Losses for the
 * side to move are kept too, so the defender also gets to move first. */
#ifndef PLAY_ENDING_RANDOM_POSITION_H
#define PLAY_ENDING_RANDOM_POSITION_H

#include <dtb/dtb.h>

#include "rng.h"

/* A decided position of `material` and its winner. Draws at most a million
 * candidates (DTB_INVALID_ARGUMENT with a message if none is decided). */
dtb_status random_won_position(dtb_tables* tables, const char* material, rng* r, dtb_position* out,
                               dtb_side* winner, dtb_error* error);

#endif
