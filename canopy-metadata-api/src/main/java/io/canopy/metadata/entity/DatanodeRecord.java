package io.canopy.metadata.entity;

/**
 * A registered datanode and its last reported figures, persisted so every namenode (and a restarted one) sees
 * it without waiting for the next heartbeat. {@code lastHeartbeatMs} is wall-clock time.
 */
public record DatanodeRecord(
    String uuid,
    String hostName,
    String ipAddress,
    int transferPort,
    int infoPort,
    int infoSecurePort,
    int ipcPort,
    String networkLocation,
    String softwareVersion,
    long lastHeartbeatMs,
    long capacity,
    long dfsUsed,
    long remaining,
    long blockPoolUsed,
    long nonDfsUsed,
    int transceiverCount,
    long registeredAtMs) {

  public DatanodeRecord withHeartbeat(long heartbeatMs, long newCapacity, long newDfsUsed, long newRemaining,
      long newBlockPoolUsed, long newNonDfsUsed, int newTransceiverCount) {
    return new DatanodeRecord(uuid, hostName, ipAddress, transferPort, infoPort, infoSecurePort, ipcPort,
        networkLocation, softwareVersion, heartbeatMs, newCapacity, newDfsUsed, newRemaining, newBlockPoolUsed,
        newNonDfsUsed, newTransceiverCount, registeredAtMs);
  }
}
