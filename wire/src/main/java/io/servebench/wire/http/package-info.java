/**
 * HTTP/1.1 servers on Netty's event loops (epoll where the platform has it): keep-alive connections, requests
 * read whole, responses written whole or streamed as chunks at the instants their caller schedules, with the time
 * each write reached the kernel. The public types are the API (a {@link io.servebench.wire.http.HttpServer}, a
 * {@link io.servebench.wire.http.RequestHandler} that gets each {@link io.servebench.wire.http.ServerRequest} with
 * its {@link io.servebench.wire.http.Responder}, and a {@link io.servebench.wire.http.ResponseStream}); the
 * connections behind them are package-private. {@link io.servebench.wire.http.ControlClient} is the control plane's
 * blocking client (readiness, scrapes, resets, version and tokenizer queries) on the same loops. It knows HTTP,
 * nothing about OpenAI or server-sent events.
 */
package io.servebench.wire.http;
