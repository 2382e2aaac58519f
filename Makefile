GO      ?= go
BIN     := bin/wikid
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@2025.1.1
FUZZTIME ?= 10s

.PHONY: build run test lint bench fuzz clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/wikid

# run builds wikid and runs it on a demo wiki made from fixtures/.
run: build
	$(BIN) --help

# test is what CI runs: formatting, vet, and every test under the race detector.
test:
	@unformatted=$$(gofmt -l cmd internal grammar); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

lint:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# bench runs every benchmark once with a fixed count, for comparison tables.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

# fuzz runs each fuzz target for FUZZTIME.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$target"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin
