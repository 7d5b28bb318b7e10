package io.canopy.namenode.http;

import java.io.IOException;

/** One WebHDFS operation: its answer to a request, run as the request's user. */
@FunctionalInterface
interface WebHdfsHandler {
  WebHdfsAnswer answer(WebHdfsRequest request) throws IOException;
}
