/* Which materials to play: the --materials list ("all", a piece count such as
 * "5", or material names such as "KKMvK", separated by commas) expanded to
 * material names in the probe library's canonical spelling (White's pieces
 * first, kings before men: "KKMvK"). */
#ifndef PLAY_ENDING_MATERIALS_H
#define PLAY_ENDING_MATERIALS_H

#include <dtb/dtb.h>
#include <stddef.h>

#define MATERIAL_NAME_SIZE 24

typedef struct material_list {
  char (*names)[MATERIAL_NAME_SIZE];
  size_t count;
} material_list;

/* Every material of `spec`; "all" means 2..max_pieces pieces. Each name is
 * checked with dtb_material_size. Free the list with materials_free. */
dtb_status materials_parse(const char* spec, int max_pieces, material_list* out, dtb_error* error);

void materials_free(material_list* list);

#endif
