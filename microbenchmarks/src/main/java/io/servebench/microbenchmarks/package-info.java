/**
 * JMH microbenchmarks of the client's hot paths (the SSE parser and chunk interpretation); run on demand, never by the
 * tests.
 */
package io.servebench.microbenchmarks;
