// GET / and the explorer page's other files, from the bytes compiled into
// the binary (page_assets.h).
#pragma once

namespace httplib {
class Server;
}

namespace dtb {

void add_page_routes(httplib::Server& server);

}  // namespace dtb
