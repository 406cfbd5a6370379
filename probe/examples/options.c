#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(const char* program, const char* problem) {
  if (problem) fprintf(stderr, "%s: %s\n", program, problem);
  fprintf(stderr,
          "usage: %s --tables DIR [--materials all|N|MATERIAL,...] [--games N] [--seed S]\n"
          "       %s --tables DIR --fen FEN [--defence best|rules|random|wdl] [--seed S]\n"
          "--winner best|rules|wdl|random: how the winner plays (best, the engine; rules, the engine\n"
          "under the draw rules with the game's counts, and so does the best defence; wdl and random\n"
          "are controls)\n"
          "DIR needs the .wdl and .mtc tables (dtb gen --mtc) and, for the 6.3/6.4 class\n"
          "materials, the .rule tables (dtb rules --build DIR).\n",
          program, program);
  return 2;
}

static int parse_count(const char* text, long long low, long long* out) {
  char* end = NULL;
  *out = strtoll(text, &end, 10);
  return end != text && *end == '\0' && *out >= low;
}

/* One option and its value; 0 on success. */
static int parse_option(const char* name, const char* value, options* o) {
  long long n = 0;
  if (strcmp(name, "--tables") == 0)
    o->tables = value;
  else if (strcmp(name, "--materials") == 0)
    o->materials = value;
  else if (strcmp(name, "--fen") == 0)
    o->fen = value;
  else if (strcmp(name, "--games") == 0 && parse_count(value, 1, &n) && n <= 1000000)
    o->games = (int)n;
  else if (strcmp(name, "--seed") == 0 && parse_count(value, 0, &n))
    o->seed = (uint64_t)n;
  else if (strcmp(name, "--defence") == 0 && player_parse(value) >= 0)
    o->fen_defence = (player)player_parse(value);
  else if (strcmp(name, "--winner") == 0 && player_parse(value) >= 0)
    o->winner = (player)player_parse(value);
  else
    return 1;
  return 0;
}

int options_parse(int argc, char** argv, options* o) {
  const options defaults = {NULL, "all", 10, 1, NULL, PLAYER_BEST, PLAYER_BEST};
  *o = defaults;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) return usage(argv[0], "every option takes a value");
    if (parse_option(argv[i], argv[i + 1], o) != 0) {
      char problem[256];
      snprintf(problem, sizeof problem, "bad option or value: %s %s", argv[i], argv[i + 1]);
      return usage(argv[0], problem);
    }
  }
  return o->tables ? 0 : usage(argv[0], "--tables is required");
}
