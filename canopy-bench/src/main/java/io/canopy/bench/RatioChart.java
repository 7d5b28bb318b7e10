package io.canopy.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A bar chart of Canopy/HDFS throughput ratios, one bar per operation, with the parity line at 1.0: green above,
 * red below. Drawn with Java2D (headless), written as PNG.
 */
public final class RatioChart {
  /** One bar. */
  public record Bar(String label, double ratio) {
  }

  private static final int WIDTH = 1000;
  private static final int BAR_AREA_HEIGHT = 360;
  private static final int TOP = 50;
  private static final int LEFT = 70;
  /** Room right of the last bar for its label, which is drawn slanting down to the right. */
  private static final int RIGHT = 110;
  private static final int BOTTOM_LABELS = 130;

  private RatioChart() {
  }

  public static void write(Path file, String title, List<Bar> bars) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int height = TOP + BAR_AREA_HEIGHT + BOTTOM_LABELS;
    BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, height);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title, LEFT, 28);
      double max = Math.max(1.5, bars.stream().mapToDouble(Bar::ratio).max().orElse(1) * 1.15);
      int baseline = TOP + BAR_AREA_HEIGHT;
      drawAxis(g, max, baseline);
      int slot = (WIDTH - LEFT - RIGHT) / Math.max(1, bars.size());
      int barWidth = Math.max(8, (int) (slot * 0.6));
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      for (int i = 0; i < bars.size(); i++) {
        Bar bar = bars.get(i);
        int x = LEFT + i * slot + (slot - barWidth) / 2;
        int barHeight = (int) Math.round(bar.ratio / max * BAR_AREA_HEIGHT);
        g.setColor(bar.ratio >= 1 ? new Color(0x2e7d32) : new Color(0xc62828));
        g.fillRect(x, baseline - barHeight, barWidth, barHeight);
        g.setColor(Color.BLACK);
        String value = String.format(Locale.ROOT, "%.2f", bar.ratio);
        g.drawString(value, x + (barWidth - g.getFontMetrics().stringWidth(value)) / 2, baseline - barHeight - 4);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.translate(x + barWidth / 2 + 4, baseline + 8);
        rotated.rotate(Math.toRadians(50));
        rotated.drawString(bar.label, 0, 0);
        rotated.dispose();
      }
      int parity = baseline - (int) Math.round(1.0 / max * BAR_AREA_HEIGHT);
      g.setColor(new Color(0x1565c0));
      g.setStroke(new BasicStroke(2, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {8, 6}, 0));
      g.drawLine(LEFT, parity, WIDTH - RIGHT, parity);
      g.drawString("HDFS = 1.0", 4, parity - 6);
    } finally {
      g.dispose();
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    ImageIO.write(image, "png", file.toFile());
  }

  private static void drawAxis(Graphics2D g, double max, int baseline) {
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    g.setColor(Color.GRAY);
    g.drawLine(LEFT, TOP, LEFT, baseline);
    g.drawLine(LEFT, baseline, WIDTH - RIGHT, baseline);
    double step = max > 4 ? 1.0 : 0.25;
    for (double tick = 0; tick <= max; tick += step) {
      int y = baseline - (int) Math.round(tick / max * BAR_AREA_HEIGHT);
      g.drawLine(LEFT - 4, y, LEFT, y);
      g.drawString(String.format(Locale.ROOT, "%.2f", tick), 20, y + 4);
    }
    Graphics2D label = (Graphics2D) g.create();
    label.rotate(-Math.PI / 2);
    label.drawString("Canopy / HDFS throughput", -(TOP + 260), 12);
    label.dispose();
  }
}
