#include "materials.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dtb_status fail(dtb_error* error, dtb_status status, const char* message) {
  if (error) {
    memset(error, 0, sizeof *error);
    error->status = status;
    error->block = -1;
    snprintf(error->message, sizeof error->message, "%s", message);
  }
  return status;
}

static dtb_status append(material_list* list, const char* name, dtb_error* error) {
  uint64_t size = 0;
  const dtb_status s = dtb_material_size(name, &size, error); /* rejects a misspelt name */
  if (s != DTB_OK) return s;
  char(*grown)[MATERIAL_NAME_SIZE] = realloc(list->names, (list->count + 1) * sizeof *grown);
  if (!grown) return fail(error, DTB_OUT_OF_MEMORY, "out of memory listing materials");
  list->names = grown;
  snprintf(list->names[list->count++], MATERIAL_NAME_SIZE, "%s", name);
  return DTB_OK;
}

/* "KK" + "M" for kings and men: one side of a material name. */
static void side_name(char* out, int kings, int men) {
  memset(out, 'K', (size_t)kings);
  memset(out + kings, 'M', (size_t)men);
  out[kings + men] = '\0';
}

/* Every material of exactly `pieces` pieces, each side with at least one. */
static dtb_status append_piece_count(material_list* list, int pieces, dtb_error* error) {
  for (int white = pieces - 1; white >= 1; --white)
    for (int wk = white; wk >= 0; --wk)
      for (int bk = pieces - white; bk >= 0; --bk) {
        char w[MATERIAL_NAME_SIZE / 2], b[MATERIAL_NAME_SIZE / 2], name[MATERIAL_NAME_SIZE];
        side_name(w, wk, white - wk);
        side_name(b, bk, pieces - white - bk);
        snprintf(name, sizeof name, "%sv%s", w, b);
        const dtb_status s = append(list, name, error);
        if (s != DTB_OK) return s;
      }
  return DTB_OK;
}

static dtb_status append_item(material_list* list, const char* item, int max_pieces, dtb_error* error) {
  if (strcmp(item, "all") == 0) {
    for (int pieces = 2; pieces <= max_pieces; ++pieces) {
      const dtb_status s = append_piece_count(list, pieces, error);
      if (s != DTB_OK) return s;
    }
    return DTB_OK;
  }
  char* end = NULL;
  const long pieces = strtol(item, &end, 10);
  if (end != item && *end == '\0') {
    if (pieces < 2 || pieces > max_pieces) {
      char message[128];
      snprintf(message, sizeof message, "--materials %ld: the tables hold 2..%d pieces", pieces, max_pieces);
      return fail(error, DTB_TOO_MANY_PIECES, message);
    }
    return append_piece_count(list, (int)pieces, error);
  }
  return append(list, item, error);
}

dtb_status materials_parse(const char* spec, int max_pieces, material_list* out, dtb_error* error) {
  out->names = NULL;
  out->count = 0;
  char* copy = malloc(strlen(spec) + 1);
  if (!copy) return fail(error, DTB_OUT_OF_MEMORY, "out of memory listing materials");
  strcpy(copy, spec);
  dtb_status s = DTB_OK;
  for (char* item = strtok(copy, ","); item && s == DTB_OK; item = strtok(NULL, ","))
    s = append_item(out, item, max_pieces, error);
  free(copy);
  if (s == DTB_OK && out->count == 0) s = fail(error, DTB_INVALID_ARGUMENT, "--materials names no material");
  if (s != DTB_OK) materials_free(out);
  return s;
}

void materials_free(material_list* list) {
  free(list->names);
  list->names = NULL;
  list->count = 0;
}
