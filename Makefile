# Thin wrapper over CMake: `make run` and `make test` are the README's two commands.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release
# Warnings are errors in `make test` (the CI build, .ci/run), not in `make build` or `make run`:
# a user's newer compiler may warn where ours does not.
WERROR ?= OFF

.PHONY: deps configure build run test test-fast bench clean

deps:
	@./scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DTRIBO_WERROR=$(WERROR) > /tmp/tribo-configure.log 2>&1 || (cat /tmp/tribo-configure.log; exit 1)

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@./scripts/run-default.sh $(BUILD)

test: WERROR = ON
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

bench: build
	@./scripts/run-bench.sh $(BUILD)
	@./scripts/bench-pd-vs-lammps.sh $(BUILD)

clean:
	@rm -rf $(BUILD)

# Reliability checks (docs/reliability.md), both run by .ci/run after `make test`.
# `make sanitize`: the unit-test programs built with AddressSanitizer + UndefinedBehaviorSanitizer
# (-O1 -g), run by ctest -L unit. `make fuzz`: the deck-reader fuzzer (clang, libFuzzer, with the
# same sanitizers) for FUZZ_SECONDS on the deck corpus.
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 60
SANITIZE_FLAGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
  -DTRIBO_SANITIZE=address,undefined -DTRIBO_BUILD_BENCH=OFF
UNIT_TEST_TARGETS = $(foreach d,core contact parallel mpm pd io app,$(if $(wildcard tests/$(d)/*_test.cpp),tribo_$(d)_tests))

.PHONY: sanitize fuzz fuzz-deps

sanitize: deps
	@cmake -S . -B $(BUILD_ASAN) $(SANITIZE_FLAGS) > /tmp/tribo-configure-asan.log 2>&1 || (cat /tmp/tribo-configure-asan.log; exit 1)
	@cmake --build $(BUILD_ASAN) -j $(JOBS) --target $(UNIT_TEST_TARGETS)
	@cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
	  UBSAN_OPTIONS=print_stacktrace=1 ctest -L unit --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# libomp-dev: OpenMP for clang (tribo_core links OpenMP); clang itself and libclang-rt come from
# scripts/install-deps.sh.
fuzz-deps: deps
	@if ! dpkg-query -W -f='$${Status}' libomp-dev 2>/dev/null | grep -q "install ok installed"; then \
	  echo "fuzz-deps: installing libomp-dev"; sudo_cmd=; [ "$$(id -u)" -eq 0 ] || sudo_cmd=sudo; \
	  $$sudo_cmd apt-get update -qq || true; \
	  $$sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libomp-dev; \
	fi

fuzz: fuzz-deps
	@cmake -S . -B $(BUILD_FUZZ) -DCMAKE_CXX_COMPILER=clang++ -DTRIBO_FUZZ=ON -DTRIBO_BUILD_TESTS=OFF -DTRIBO_MPI=OFF $(SANITIZE_FLAGS) \
	  > /tmp/tribo-configure-fuzz.log 2>&1 || (cat /tmp/tribo-configure-fuzz.log; exit 1)
	@cmake --build $(BUILD_FUZZ) -j $(JOBS) --target tribo_deck_fuzzer
	@./fuzz/run-fuzzer.sh $(BUILD_FUZZ) $(FUZZ_SECONDS)
