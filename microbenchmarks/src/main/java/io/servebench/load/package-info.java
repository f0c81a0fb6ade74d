/**
 * Microbenchmarks that need the load generator's package-private parts (a request's exchange), placed
 * in its package for that.
 */
package io.servebench.load;
