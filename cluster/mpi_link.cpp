#include "cluster/mpi_link.h"

#include <mpi.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "compress/atomic_file.h"
#include "index/material.h"

namespace dtb::cluster {
namespace {

void send_bytes(int destination, int tag, const char* data, std::uint64_t size) {
  MPI_Send(data, static_cast<int>(size), MPI_BYTE, destination, tag, MPI_COMM_WORLD);
}

// Receive the message `status` describes.
Message receive_probed(const MPI_Status& status) {
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  Message m;
  m.source = status.MPI_SOURCE;
  m.tag = status.MPI_TAG;
  m.text.resize(static_cast<std::size_t>(size));
  MPI_Recv(m.text.data(), size, MPI_BYTE, m.source, m.tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return m;
}

// The message after a file's chunks (its end, in this protocol).
Message receive_end(int source) {
  MPI_Status status;
  MPI_Probe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
  return receive_probed(status);
}

}  // namespace

std::optional<Message> try_receive_message(int source) {
  MPI_Status status;
  int flag = 0;
  MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
  // A chunk or an end here would mean a header was skipped: never in this protocol.
  if (!flag || status.MPI_TAG == kFileChunk || status.MPI_TAG == kFileEnd) return std::nullopt;
  return receive_probed(status);
}

void discard_until(int source, int tag) {
  for (;;) {
    MPI_Status status;
    int flag = 0;
    MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    if (!flag) {
      std::this_thread::sleep_for(kPollInterval);
      continue;
    }
    if (receive_probed(status).tag == tag) return;
  }
}

Message receive_message(int source) {
  for (;;) {
    if (std::optional<Message> m = try_receive_message(source)) return std::move(*m);
    std::this_thread::sleep_for(kPollInterval);
  }
}

void send_text(int destination, int tag, const std::string& text) {
  send_bytes(destination, tag, text.data(), text.size());
}

void send_data(int destination, int tag, std::span<const std::uint8_t> data) {
  send_bytes(destination, tag, reinterpret_cast<const char*>(data.data()), data.size());
}

namespace {

struct HashStateFree {
  void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};

// XXH3 over a stream of chunks, as 16 hex digits (the end message's form).
class StreamHash {
 public:
  StreamHash() : state_(XXH3_createState()) { XXH3_64bits_reset(state_.get()); }
  void update(const void* data, std::size_t size) { XXH3_64bits_update(state_.get(), data, size); }
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(XXH3_64bits_digest(state_.get())));
    return text;
  }

 private:
  std::unique_ptr<XXH3_state_t, HashStateFree> state_;
};

// What a file's sender owes the receiver after the header: the chunks it
// could read and an end message saying whether that was all of the file.
std::int64_t stream_file(int destination, std::ifstream& in, std::uint64_t size, std::uint64_t chunk_bytes,
                         const std::string& path, std::string& error) {
  std::vector<char> chunk(static_cast<std::size_t>(std::min(size, chunk_bytes)));
  StreamHash hash;
  std::uint64_t sent = 0;
  while (sent < size) {
    const auto want = static_cast<std::streamsize>(std::min(chunk_bytes, size - sent));
    in.read(chunk.data(), want);
    if (in.gcount() != want) {
      error = "cannot read " + path + " to its end (" + std::to_string(sent + static_cast<std::uint64_t>(in.gcount())) +
              " of " + std::to_string(size) + " bytes)";
      send_text(destination, kFileEnd, "error\t" + error);
      return -1;
    }
    send_bytes(destination, kFileChunk, chunk.data(), static_cast<std::uint64_t>(want));
    hash.update(chunk.data(), static_cast<std::size_t>(want));
    sent += static_cast<std::uint64_t>(want);
  }
  send_text(destination, kFileEnd, "ok\t" + hash.hex());
  return static_cast<std::int64_t>(size);
}

}  // namespace

std::int64_t send_file(int destination, const std::string& path, const std::string& name, std::string& error,
                       std::uint64_t chunk_bytes) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (!in.is_open() || ec) {
    error = "cannot open " + path + (ec ? ": " + ec.message() : "");
    return -1;
  }
  send_text(destination, kFileHeader, name + "\t" + std::to_string(size));
  return stream_file(destination, in, size, std::max<std::uint64_t>(chunk_bytes, 1), path, error);
}

std::int64_t receive_file(int source, const std::string& header, const std::string& dir, std::string& error) {
  const std::size_t tab = header.find('\t');
  const std::string name = header.substr(0, tab);
  std::uint64_t size = 0;
  bool well_formed = tab != std::string::npos;
  try {
    if (well_formed) size = std::stoull(header.substr(tab + 1));
  } catch (const std::exception&) {
    well_formed = false;
  }
  const std::string from = "rank " + std::to_string(source);
  if (!well_formed || !is_table_file_name(name)) error = from + " sent a file named '" + name + "', not a table file";
  AtomicFileWriter file(dir + "/" + name);
  if (error.empty())
    if (TableError e = file.open()) error = e.message;
  // Read every chunk and the end even after a failure: the stream stays in step.
  StreamHash hash;
  std::uint64_t received = 0;
  std::vector<std::uint8_t> chunk;
  for (;;) {
    MPI_Status status;
    MPI_Probe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG != kFileChunk) break;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    chunk.resize(static_cast<std::size_t>(count));
    MPI_Recv(chunk.data(), count, MPI_BYTE, source, kFileChunk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    received += chunk.size();
    hash.update(chunk.data(), chunk.size());
    if (error.empty())
      if (TableError e = file.append(chunk)) error = e.message;
  }
  const Message end = receive_end(source);
  if (!error.empty()) return -1;
  if (end.tag != kFileEnd) {
    error = from + " sent message " + std::to_string(end.tag) + " inside the file " + name;
  } else if (end.text.rfind("ok\t", 0) != 0) {
    error = from + " could not send " + name + ": " + end.text.substr(end.text.find('\t') + 1);
  } else if (received != size) {
    error = from + " sent " + std::to_string(received) + " bytes of " + name + ", announced " + std::to_string(size);
  } else if (end.text.substr(3) != hash.hex()) {
    error = name + " from " + from + " arrived damaged (XXH3 " + hash.hex() + ", sent " + end.text.substr(3) + ")";
  } else if (TableError e = file.commit()) {
    error = e.message;
  }
  return error.empty() ? static_cast<std::int64_t>(size) : -1;
}

bool is_table_file_name(const std::string& name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string extension = name.substr(dot);
  if (extension != ".wdl" && extension != ".mtc" && extension != ".stats" && extension != ".mtc-stats") return false;
  const auto material = parse_material(name.substr(0, dot));
  return material && material->name() == name.substr(0, dot);
}

}  // namespace dtb::cluster
