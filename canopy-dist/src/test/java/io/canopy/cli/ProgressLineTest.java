package io.canopy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
  @Test
  void onATerminalTheLineIsRewrittenInPlaceAndCleared() {
    StringWriter text = new StringWriter();
    ProgressLine line = new ProgressLine(new PrintWriter(text), true);
    line.show("[  1.0s] 10 of 20 datanodes live");
    line.show("[  2.0s] 20 of 20");
    line.clear();
    assertEquals("\r[  1.0s] 10 of 20 datanodes live" + "\r[  2.0s] 20 of 20" + " ".repeat(15)
        + "\r" + " ".repeat(17) + "\r", text.toString());
  }

  @Test
  void elsewhereNothingIsPrinted() {
    StringWriter text = new StringWriter();
    ProgressLine line = new ProgressLine(new PrintWriter(text), false);
    line.show("[  1.0s] 10 of 20 datanodes live");
    line.clear();
    assertEquals("", text.toString());
  }
}
