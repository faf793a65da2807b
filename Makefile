# Kiwi's local workflow. Every target is safe to run twice; see README.md.
.PHONY: run test drill up down restart worker logs status build format generate clean bench bench-messaging bench-worker bench-peer bench-floors

run:    ## build and run the whole system in the foreground; Ctrl-C stops it
	@deploy/local/run.sh

test:   ## run every test against a real PostgreSQL and RabbitMQ
	@deploy/local/test.sh

drill:  ## partition drills across network namespaces, one host per service, links cut, slowed and frozen (root only; docs/operations.md)
	@deploy/local/drill.sh

up:     ## start the whole system in the background
	@deploy/local/install-packages.sh
	@deploy/local/infra.sh up
	@deploy/local/services.sh up
	@deploy/local/prometheus.sh up
	@echo "Kiwi is running in the background: http://localhost:8080, Prometheus on http://localhost:9190 (make status, make logs, make down)"

down:   ## stop everything `make up` or an interrupted `make run` left running
	@deploy/local/prometheus.sh down
	@deploy/local/services.sh down
	@deploy/local/infra.sh down

restart: ## restart one service from the binaries already built (no build): make restart SERVICE=gateway|auth|scan-worker|notifier|llm-stub|fake-apns
	@deploy/local/services.sh restart "$(SERVICE)"

worker: ## start one more scan worker on the next free ports, from the binaries already built
	@deploy/local/services.sh worker

logs:   ## follow the services' logs
	@mkdir -p .run/logs && touch .run/logs/kiwi-auth.log .run/logs/kiwi-gateway.log .run/logs/kiwi-scan-worker.log
	@tail -n 50 -F .run/logs/*.log

status: ## show what is running, and the alerts firing in the local Prometheus
	@deploy/local/infra.sh status || true
	@deploy/local/services.sh status || true
	@deploy/local/prometheus.sh status || true

build:
	swift build --build-tests

format: ## format every Swift file with swift-format (.swift-format); make test fails on a file it would change
	@deploy/local/format.sh fix

generate: ## regenerate the API client's code (Shared/APIClient/Generated/) from Shared/APIDocument/openapi.yaml; commit both
	@deploy/local/generate.sh

bench:  ## load-test scans through the whole system: scenarios A–D, S, R and H of docs/operations.md, P and T on request (release build)
	@deploy/local/bench.sh

bench-messaging: ## benchmark RabbitMQ confirmed publishing and consuming (release build)
	@deploy/local/bench-messaging.sh

bench-worker: ## benchmark scan jobs through a real scan worker and the OpenAI stub (release build)
	@deploy/local/bench-worker.sh

bench-floors: ## scenarios A and B, then each process asked for no more than a scan asks of it: A's CPU per scan over each floor, B's added latency over its floor (release build)
	@deploy/local/bench-floors.sh

bench-peer:  ## LiteLLM's proxy forwarding the same scan requests to the same stub: whole answers with 1 and 2 workers, streamed at gpt-4o's pace (installs LiteLLM into .run/bench-peer/venv)
	@deploy/local/bench-peer.sh

clean:  ## stop everything and delete local data (.run/, or its /var/tmp fallback) and build output
	@deploy/local/prometheus.sh down
	@deploy/local/services.sh down
	@deploy/local/infra.sh clean
	rm -rf .run .build
