package io.canopy.cli;

import io.canopy.metadata.postgres.SecretFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

/** Writes Hadoop {@code *-site.xml} files: only the given properties, sorted, so they are easy to read. */
public final class HadoopXml {
  private HadoopXml() {
  }

  public static String render(Map<String, String> properties, String comment) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<!-- ").append(comment.replace("--", "- -")).append(" -->\n<configuration>\n");
    for (Map.Entry<String, String> property : new TreeMap<>(properties).entrySet()) {
      xml.append("  <property><name>").append(escape(property.getKey())).append("</name><value>")
          .append(escape(property.getValue())).append("</value></property>\n");
    }
    return xml.append("</configuration>\n").toString();
  }

  /**
   * Writes {@code file} atomically (a temporary file moved over it), so processes that read it while it is rewritten
   * (clients, a datanode refreshing its namenode list) see the old or the new file, never half of one. With
   * {@code ownerOnly} the file is 0600 and its directory 0700: server-side configuration, which may name a
   * database login.
   */
  public static void write(Path file, Map<String, String> properties, String comment, boolean ownerOnly)
      throws IOException {
    if (ownerOnly) {
      SecretFiles.ensureDirectory(file.getParent());
      SecretFiles.write(file, render(properties, comment));
      return;
    }
    Files.createDirectories(file.getParent());
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temporary, render(properties, comment));
    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static String escape(String text) {
    StringBuilder escaped = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '&' -> escaped.append("&amp;");
        case '<' -> escaped.append("&lt;");
        case '>' -> escaped.append("&gt;");
        case '"' -> escaped.append("&quot;");
        case '\'' -> escaped.append("&apos;");
        default -> escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
