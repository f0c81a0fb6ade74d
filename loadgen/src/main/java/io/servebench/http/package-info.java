/**
 * An HTTP/1.1 client built for timing streamed responses: a pool of keep-alive connections opened before
 * the load starts, requests written to the socket by the thread that decides to send them (so the send
 * stamp is the moment the bytes go to the kernel), and responses read by a few selector threads that
 * stamp every socket read before its bytes are looked at and hand the de-framed body bytes on without
 * copying or allocating. It knows HTTP framing (status line, headers, chunked, length, until close) and
 * TLS, nothing about OpenAI or server-sent events.
 */
package io.servebench.http;
