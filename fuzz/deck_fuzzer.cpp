// libFuzzer target for the deck reader (docs/reliability.md): any bytes given to parse_deck either
// give a SimulationSpec or throw tribo::DeckError with a message that starts at the deck's name;
// nothing else may happen (no other exception, crash, leak, or undefined behaviour: the target is
// built with AddressSanitizer and UndefinedBehaviorSanitizer). A deck that is accepted must also
// survive the writer's round trip of io/deck_writer.hpp: parse_deck(write_deck(spec)) accepts it
// and writes the same text again.
// Run: build-fuzz/fuzz/tribo_deck_fuzzer -dict=fuzz/deck.dict NEW_CORPUS tests/decks/good tests/decks/bad
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>


#include "tribo/core/error.hpp"
#include "tribo/io/deck_reader.hpp"
#include "tribo/io/deck_writer.hpp"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "deck fuzzer: %s\n%s\n", what, detail.c_str());
  std::abort();  // libFuzzer saves the input as crash-*
}

// yaml-cpp 0.7's endless LoadAll on a stray flow indicator (jbeder/yaml-cpp issue #1040) was set
// aside here until io/deck_reader.cpp bounded its parse (it counts the documents with
// YAML::Parser first and reports a document that makes no progress); such inputs now go to the
// reader like any other, so the fuzzer checks that fix too.

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  tribo::SimulationSpec spec;
  try {
    spec = tribo::io::parse_deck(text, "fuzz.yaml");
  } catch (const tribo::DeckError& e) {
    // Located: the message names the deck first (FILE:LINE:COLUMN: KEY: what, or FILE: what).
    if (std::string(e.what()).rfind("fuzz.yaml", 0) != 0) finding("a DeckError without the deck's name", e.what());
    return 0;
  }
  const std::string written = tribo::io::write_deck(spec);
  try {
    const tribo::SimulationSpec again = tribo::io::parse_deck(written, "written.yaml");
    if (tribo::io::write_deck(again) != written) finding("write_deck(parse_deck(write_deck(spec))) differs", written);
  } catch (const tribo::DeckError& e) {
    finding("the writer's deck is refused by the reader", std::string(e.what()) + "\n" + written);
  }
  return 0;
}
