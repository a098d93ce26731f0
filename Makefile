# Storykeep: the two commands, and a few helpers. The work is in scripts/.
.PHONY: run test test-cms-simulator faults bench fuzz soak build deps db-stop

run: ## install what is missing, build, start .data/ PostgreSQL, migrate, apply tenants/, serve on :8080
	@scripts/run.sh

test: ## the same with a throw-away PostgreSQL, then swift test
	@scripts/test.sh

test-cms-simulator: ## the CMS simulator test with the issue's 30 s of churn (make test runs 10 s)
	@STORYKEEP_CMS_SIMULATOR_SECONDS=30 scripts/test.sh --filter ExportSimulatorTests

faults: ## the fault tests with 20 s of load per fault (make test runs 1 s): the database's failover, a server killed behind haproxy, the files' disk full
	@STORYKEEP_FAULT_SECONDS=20 scripts/test.sh --filter 'FailoverTests|LoadBalancerFailoverTests|MediaDiskFullTests'

bench: ## release build, measure, print figures
	@scripts/bench.sh

fuzz: ## libFuzzer over the GraphQL parser and validator for FUZZ_SECONDS (60), then a long schemathesis pass
	@scripts/fuzz.sh

soak: ## the mixed load for SOAK_MINUTES (30) at one concurrency: RSS and p99 at the start and the end (not CI)
	@scripts/bench-load.sh --soak $${SOAK_MINUTES:-30}

build:
	swift build

deps:
	@scripts/deps.sh

db-stop: ## stop the project-local PostgreSQL of make run (data kept)
	@scripts/dev-db.sh stop
