/**
 * JMH microbenchmarks of the client's hot paths (the SSE parser, chunk interpretation, the request records' JSON and
 * compression) and of a comparison's bootstrap; run on demand, never by the tests.
 */
package io.servebench.microbenchmarks;
