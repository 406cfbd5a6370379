// Cooperative interruption: SIGINT/SIGTERM set a flag that long loops poll, so
// a build stops between chunks of work, removes nothing it has not finished
// writing (table files are renamed into place only when complete) and returns
// an error instead of dying half-way.
#pragma once

namespace dtb::gen {

/// Route SIGINT and SIGTERM to the flag (idempotent).
void install_interrupt_handlers();
/// Whether a stop was requested.
bool interrupt_requested();
/// Ask for a stop (for tests and for the signal handler).
void request_interrupt();
/// Clear the flag (for tests).
void clear_interrupt();

}  // namespace dtb::gen
