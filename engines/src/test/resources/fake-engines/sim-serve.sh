#!/usr/bin/env bash
# A command engine for the tests: the simulated engine as a server process of its own, started through a command, as
# a user's own OpenAI-compatible server is. The harness's class path comes from SERVEBENCH_TEST_CLASSPATH.
exec java -Xmx256m -cp "$SERVEBENCH_TEST_CLASSPATH" io.servebench.cli.Main sim serve "$@"
