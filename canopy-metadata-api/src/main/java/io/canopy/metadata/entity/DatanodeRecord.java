package io.canopy.metadata.entity;

/**
 * A registered datanode and its last reported figures, persisted so every namenode (and a restarted one) sees
 * it without waiting for the next heartbeat. {@code lastHeartbeatMs} is wall-clock time. {@code declaredDeadAtMs}
 * is 0 for a datanode in service; otherwise the leader declared it dead at that time and removed (or is removing)
 * its replicas, and the datanode must register again (and send a full block report) before it counts as live.
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
    long registeredAtMs,
    long declaredDeadAtMs) {

  /** A datanode in service (never declared dead, or registered again since). */
  public DatanodeRecord(String uuid, String hostName, String ipAddress, int transferPort, int infoPort,
      int infoSecurePort, int ipcPort, String networkLocation, String softwareVersion, long lastHeartbeatMs,
      long capacity, long dfsUsed, long remaining, long blockPoolUsed, long nonDfsUsed, int transceiverCount,
      long registeredAtMs) {
    this(uuid, hostName, ipAddress, transferPort, infoPort, infoSecurePort, ipcPort, networkLocation,
        softwareVersion, lastHeartbeatMs, capacity, dfsUsed, remaining, blockPoolUsed, nonDfsUsed, transceiverCount,
        registeredAtMs, 0);
  }

  public boolean isDeclaredDead() {
    return declaredDeadAtMs != 0;
  }

  public DatanodeRecord withHeartbeat(long heartbeatMs, long newCapacity, long newDfsUsed, long newRemaining,
      long newBlockPoolUsed, long newNonDfsUsed, int newTransceiverCount) {
    return new DatanodeRecord(uuid, hostName, ipAddress, transferPort, infoPort, infoSecurePort, ipcPort,
        networkLocation, softwareVersion, heartbeatMs, newCapacity, newDfsUsed, newRemaining, newBlockPoolUsed,
        newNonDfsUsed, newTransceiverCount, registeredAtMs, declaredDeadAtMs);
  }

  /** This datanode, declared dead by the leader at {@code atMs} (positive). */
  public DatanodeRecord withDeclaredDeadAt(long atMs) {
    if (atMs <= 0) {
      throw new IllegalArgumentException("datanode " + uuid + ": declared dead at " + atMs + ", must be positive");
    }
    return new DatanodeRecord(uuid, hostName, ipAddress, transferPort, infoPort, infoSecurePort, ipcPort,
        networkLocation, softwareVersion, lastHeartbeatMs, capacity, dfsUsed, remaining, blockPoolUsed, nonDfsUsed,
        transceiverCount, registeredAtMs, atMs);
  }
}
