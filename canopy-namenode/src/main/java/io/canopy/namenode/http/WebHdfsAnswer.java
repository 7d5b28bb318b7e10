package io.canopy.namenode.http;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.hdfs.web.JsonUtil;
import org.apache.hadoop.security.authorize.AuthorizationException;

/** What the namenode answers a WebHDFS request: HDFS's status codes, headers and JSON bodies. */
abstract class WebHdfsAnswer {
  static final String JSON = "application/json";
  static final String OCTETS = "application/octet-stream";

  /** Writes the body of a streamed answer (a long listing); it may fail part-way, as HDFS's does. */
  interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  abstract void send(HttpServletResponse response) throws IOException;

  /** 200 with a JSON document. */
  static WebHdfsAnswer json(String document) {
    return new WebHdfsAnswer() {
      @Override
      void send(HttpServletResponse response) throws IOException {
        byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(JSON);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
      }
    };
  }

  /** 200 with a JSON document written as it is produced. */
  static WebHdfsAnswer streamedJson(Body body) {
    return new WebHdfsAnswer() {
      @Override
      void send(HttpServletResponse response) throws IOException {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(JSON);
        body.writeTo(response.getOutputStream());
      }
    };
  }

  /** 200 without a body, for the calls HDFS answers so. */
  static WebHdfsAnswer empty() {
    return new WebHdfsAnswer() {
      @Override
      void send(HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(OCTETS);
        response.setContentLength(0);
      }
    };
  }

  /**
   * HDFS's redirect of a data call to a datanode: 307 with the location, or, when the client asked for
   * {@code noredirect=true}, 200 with the location as JSON.
   */
  static WebHdfsAnswer redirect(URI location, boolean noRedirect) {
    if (noRedirect) {
      return json(JsonUtil.toJsonString("Location", location));
    }
    return new WebHdfsAnswer() {
      @Override
      void send(HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_TEMPORARY_REDIRECT);
        response.setHeader("Location", location.toASCIIString());
        response.setContentType(OCTETS);
        response.setContentLength(0);
      }
    };
  }

  /** A failure as HDFS answers it: a status by the exception's kind and the {@code RemoteException} JSON. */
  static WebHdfsAnswer failure(Exception error) {
    int status = statusOf(error);
    String document = JsonUtil.toJsonString(error);
    return new WebHdfsAnswer() {
      @Override
      void send(HttpServletResponse response) throws IOException {
        byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(JSON);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
      }
    };
  }

  /** HDFS's mapping of exceptions to HTTP statuses (its WebHDFS exception handler). */
  static int statusOf(Exception error) {
    if (error instanceof SecurityException || error instanceof AuthorizationException) {
      return HttpServletResponse.SC_FORBIDDEN;
    }
    if (error instanceof FileNotFoundException) {
      return HttpServletResponse.SC_NOT_FOUND;
    }
    if (error instanceof IOException) {
      return HttpServletResponse.SC_FORBIDDEN;
    }
    if (error instanceof UnsupportedOperationException || error instanceof IllegalArgumentException) {
      return HttpServletResponse.SC_BAD_REQUEST;
    }
    return HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
  }
}
