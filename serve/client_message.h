// What a client of the server may read in an error message: the library's
// messages name tables by their path, and the server's directories are none
// of a client's business.
#pragma once

#include <string>

namespace dtb {

/// `message` with the table directory `dir` taken out: "DIR/KMvK.wdl" reads
/// "KMvK.wdl", "the largest table in DIR has 4" "... in the table directory
/// has 4". Only whole mentions count (DIR may be ".", or part of a word).
std::string without_dir(std::string message, std::string dir);

}  // namespace dtb
