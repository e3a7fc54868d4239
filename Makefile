# Thin wrapper over CMake: `make run` and `make test` are the README's two commands.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: deps configure build run test test-fast bench clean

deps:
	@./scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) > /tmp/tribo-configure.log 2>&1 || (cat /tmp/tribo-configure.log; exit 1)

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@./scripts/run-default.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

bench: build
	@./scripts/run-bench.sh $(BUILD)

clean:
	@rm -rf $(BUILD)
