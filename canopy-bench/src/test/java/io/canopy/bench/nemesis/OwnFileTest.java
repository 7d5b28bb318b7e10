package io.canopy.bench.nemesis;

import static io.canopy.bench.nemesis.FsOperation.Kind.APPEND;
import static io.canopy.bench.nemesis.FsOperation.Kind.CREATE;
import static io.canopy.bench.nemesis.FsOperation.Kind.DELETE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OwnFileTest {
  private static Records.Decoded tokens(Long... tokens) {
    return new Records.Decoded(List.of(tokens), 0);
  }

  @Test
  void acknowledgedWritesMustAllBeRead() {
    OwnFile file = new OwnFile("/own/c0/f0");
    file.acknowledged(CREATE, 1);
    file.acknowledged(APPEND, 2);
    assertEquals(Optional.empty(), file.read(tokens(1L, 2L)));
    file.acknowledged(APPEND, 3);
    assertTrue(file.read(tokens(1L, 2L)).orElseThrow().contains("expected [1, 2, 3]"), "a lost append is caught");
    file.acknowledged(DELETE, 0);
    assertTrue(file.read(tokens(1L, 2L)).isPresent(), "a deleted file read back is a phantom");
    assertTrue(file.read(new Records.Decoded(List.of(1L, 2L), 5)).isPresent(), "bytes appeared from nowhere");
  }

  @Test
  void writesInDoubtMayHaveHappenedWhollyPartlyOrNotAtAll() {
    for (Records.Decoded found : new Records.Decoded[] {null, tokens(), tokens(9L)}) {
      OwnFile created = new OwnFile("/f");
      created.unknown(CREATE, 9);
      assertEquals(Optional.empty(), created.read(found), "a create in doubt explains " + found);
    }
    OwnFile file = new OwnFile("/g");
    file.acknowledged(CREATE, 1);
    file.unknown(APPEND, 2);
    file.unknown(APPEND, 3);
    assertEquals(Optional.empty(), file.read(new Records.Decoded(List.of(1L, 3L), 40)), "2 torn, 3 whole");
    file.unknown(APPEND, 4);
    assertTrue(file.read(tokens(1L, 4L)).isPresent(), "the acknowledged 3 is gone: lost");
    OwnFile deleted = new OwnFile("/h");
    deleted.acknowledged(CREATE, 1);
    deleted.unknown(DELETE, 0);
    assertEquals(Optional.empty(), deleted.read(null));
    assertEquals(Optional.empty(), deleted.read(null), "known absent now");
    assertTrue(deleted.read(tokens(1L)).isPresent(), "and it must stay absent");
  }
}
