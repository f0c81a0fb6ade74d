/**
 * Access for the microbenchmarks to the package-private parts of the client's HTTP transport; nothing
 * here is used outside them.
 */
package io.servebench.http;
