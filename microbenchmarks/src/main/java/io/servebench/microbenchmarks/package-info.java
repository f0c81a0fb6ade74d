/**
 * JMH microbenchmarks of the client's hot paths (the SSE parser and chunk interpretation) and of a comparison's
 * bootstrap; run on demand, never by the tests.
 */
package io.servebench.microbenchmarks;
