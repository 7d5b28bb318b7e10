package io.canopy.namenode.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.client.NamenodeList;
import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.namenode.membership.MembershipView;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.ipc.RefreshResponse;
import org.junit.jupiter.api.Test;

class NamenodeListServerTest {
  private static final MembershipView THREE = new MembershipView() {
    @Override
    public List<NamenodeRecord> liveNamenodes() {
      return List.of(new NamenodeRecord(2, 10, "127.0.0.1:9002", "", 1, 0, 0),
          new NamenodeRecord(5, 11, "127.0.0.1:9005", "", 2, 0, 0),
          new NamenodeRecord(9, 3, "127.0.0.1:9009", "", 2, 0, 0));
    }

    @Override
    public long leaderId() {
      return 5;
    }

    @Override
    public long selfId() {
      return 9;
    }
  };

  @Test
  void answersTheLiveNamenodesWithTheLeaderMarked() {
    List<RefreshResponse> responses = new ArrayList<>(new NamenodeListServer(THREE).refresh(NamenodeList.IDENTIFIER,
        new String[0]));
    assertEquals(1, responses.size());
    assertEquals(0, responses.get(0).getReturnCode());
    assertEquals("namenode 9", responses.get(0).getSenderName());
    assertEquals(List.of(new NamenodeList.Entry(2, "127.0.0.1:9002", 1, false),
        new NamenodeList.Entry(5, "127.0.0.1:9005", 2, true), new NamenodeList.Entry(9, "127.0.0.1:9009", 2, false)),
        NamenodeList.parse(responses.get(0).getMessage()));
  }

  @Test
  void aNamenodeThatHasNotJoinedYetListsNoNamenode() {
    MembershipView notJoined = new MembershipView() {
      @Override
      public List<NamenodeRecord> liveNamenodes() {
        return List.of();
      }

      @Override
      public long leaderId() {
        return 0;
      }

      @Override
      public long selfId() {
        return 0;
      }
    };
    RefreshResponse response = new NamenodeListServer(notJoined).refresh(NamenodeList.IDENTIFIER, new String[0])
        .iterator().next();
    assertEquals(0, response.getReturnCode());
    assertEquals(List.of(), NamenodeList.parse(response.getMessage()));
  }

  @Test
  void otherIdentifiersAndArgumentsAreRefusedNamingTheSupportedIdentifier() {
    NamenodeListServer server = new NamenodeListServer(THREE);
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> server.refresh("userToGroupsMappings", new String[0]));
    assertTrue(unknown.getMessage().contains("'userToGroupsMappings'"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains("'" + NamenodeList.IDENTIFIER + "'"), unknown.getMessage());
    IllegalArgumentException arguments = assertThrows(IllegalArgumentException.class,
        () -> server.refresh(NamenodeList.IDENTIFIER, new String[] {"all"}));
    assertTrue(arguments.getMessage().contains("takes no arguments"), arguments.getMessage());
  }
}
