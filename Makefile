GO      ?= go
BIN     := bin/wikid
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s

.PHONY: build run test lint bench fuzz clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/wikid

# run builds wikid, makes a demo wiki from fixtures/basic in a scratch
# directory, changes it through wikid and shows the resulting history.
run: build
	@demo=$$(mktemp -d) && cp -R fixtures/basic/. "$$demo" && \
	  git -C "$$demo" init -q -b main && git -C "$$demo" add -A && \
	  git -C "$$demo" -c user.name=demo -c user.email=demo@example.com commit -q -m "import fixtures/basic" && \
	  printf '# Ideas\n\n- a wiki that remembers everything\n' | $(BIN) write --repo "$$demo" inbox/ideas && \
	  printf -- '- try wikid\n' | $(BIN) edit --repo "$$demo" --op append inbox/ideas && \
	  $(BIN) rm --repo "$$demo" inbox/untitled && \
	  $(BIN) search --repo "$$demo" 'wiki' && \
	  git -C "$$demo" log --stat -3 && echo && echo "demo wiki: $$demo"

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
