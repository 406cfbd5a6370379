#include "cluster/mpi_link.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <span>
#include <thread>
#include <vector>

#include "compress/atomic_file.h"
#include "index/material.h"

namespace dtb::cluster {
namespace {

// A message waits at most this long before an idle rank notices it: small
// against any unit's solve, and a sleeping rank costs no CPU.
constexpr auto kPollInterval = std::chrono::milliseconds(2);

void send_bytes(int destination, int tag, const char* data, std::uint64_t size) {
  MPI_Send(data, static_cast<int>(size), MPI_BYTE, destination, tag, MPI_COMM_WORLD);
}

}  // namespace

Message receive_message(int source) {
  MPI_Status status;
  for (;;) {
    int flag = 0;
    MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    if (flag && status.MPI_TAG != kFileChunk) break;
    // A chunk here would mean a header was skipped: never in this protocol.
    std::this_thread::sleep_for(kPollInterval);
  }
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  Message m;
  m.source = status.MPI_SOURCE;
  m.tag = status.MPI_TAG;
  m.text.resize(static_cast<std::size_t>(size));
  MPI_Recv(m.text.data(), size, MPI_BYTE, m.source, m.tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return m;
}

void send_text(int destination, int tag, const std::string& text) {
  send_bytes(destination, tag, text.data(), text.size());
}

std::int64_t send_file(int destination, const std::string& path, const std::string& name, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    error = "cannot read " + path;
    return -1;
  }
  if (!in.is_open()) {
    error = "cannot open " + path;
    return -1;
  }
  send_text(destination, kFileHeader, name + "\t" + std::to_string(bytes.size()));
  for (std::uint64_t at = 0; at < bytes.size(); at += kChunkBytes)
    send_bytes(destination, kFileChunk, bytes.data() + at, std::min<std::uint64_t>(kChunkBytes, bytes.size() - at));
  return static_cast<std::int64_t>(bytes.size());
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
  std::vector<std::uint8_t> bytes(size);
  for (std::uint64_t at = 0; at < size; at += kChunkBytes)
    MPI_Recv(bytes.data() + at, static_cast<int>(std::min<std::uint64_t>(kChunkBytes, size - at)), MPI_BYTE, source,
             kFileChunk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (!well_formed || !is_table_file_name(name)) {
    error = "rank " + std::to_string(source) + " sent a file named '" + name + "', not a table file";
    return -1;
  }
  const std::span<const std::uint8_t> parts[] = {bytes};
  if (TableError e = write_file_atomically(dir + "/" + name, parts)) {
    error = e.message;
    return -1;
  }
  return static_cast<std::int64_t>(size);
}

bool is_table_file_name(const std::string& name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string extension = name.substr(dot);
  if (extension != ".wdl" && extension != ".mtc" && extension != ".stats") return false;
  const auto material = parse_material(name.substr(0, dot));
  return material && material->name() == name.substr(0, dot);
}

}  // namespace dtb::cluster
