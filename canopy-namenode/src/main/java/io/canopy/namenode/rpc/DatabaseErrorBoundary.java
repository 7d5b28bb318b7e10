package io.canopy.namenode.rpc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.FieldDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.MethodDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.ServiceDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Message;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;

/**
 * Wraps a protocol's protobuf service so every failed call passes {@link DatabaseErrors} on its way to the client:
 * one place at the edge of the RPC server, whatever call failed. A call that succeeds pays one delegation; a failed
 * call's request is looked at only when a database error is part of the failure (for the path its message names).
 */
final class DatabaseErrorBoundary implements BlockingService {
  /** The protobuf methods whose {@code ClientProtocol} call has another name: messages name the Java call. */
  private static final Map<String, String> CALL_NAMES = Map.of(
      "getFsStats", "getStats",
      "getFsReplicatedBlockStats", "getReplicatedBlockStats",
      "getFsECBlockGroupStats", "getECBlockGroupStats");

  private final BlockingService delegate;

  private DatabaseErrorBoundary(BlockingService delegate) {
    this.delegate = delegate;
  }

  static BlockingService around(BlockingService service) {
    return new DatabaseErrorBoundary(service);
  }

  @Override
  public Message callBlockingMethod(MethodDescriptor method, RpcController controller, Message request)
      throws ServiceException {
    try {
      return delegate.callBlockingMethod(method, controller, request);
    } catch (ServiceException failed) {
      Throwable cause = failed.getCause();
      if (cause == null || !DatabaseErrors.involvesStore(cause)) {
        throw failed;
      }
      throw new ServiceException(DatabaseErrors.forClient(callName(method), arguments(request), cause));
    } catch (RuntimeException | Error failed) {
      if (!DatabaseErrors.involvesStore(failed)) {
        throw failed;
      }
      Throwable answer = DatabaseErrors.forClient(callName(method), arguments(request), failed);
      if (answer instanceof RuntimeException unchecked) {
        throw unchecked;
      }
      if (answer instanceof Error error) {
        throw error;
      }
      throw new ServiceException(answer);
    }
  }

  /** The {@code ClientProtocol} call a protobuf method serves. */
  static String callName(MethodDescriptor method) {
    return CALL_NAMES.getOrDefault(method.getName(), method.getName());
  }

  /**
   * The request's fields in field order, unset ones at their defaults: the call's arguments as the Java call saw
   * them, where {@link DatabaseErrors} looks for the call's path.
   */
  private static Object[] arguments(Message request) {
    if (request == null) {
      return null;
    }
    List<Object> values = new ArrayList<>();
    for (FieldDescriptor field : request.getDescriptorForType().getFields()) {
      values.add(request.getField(field));
    }
    return values.toArray();
  }

  @Override
  public ServiceDescriptor getDescriptorForType() {
    return delegate.getDescriptorForType();
  }

  @Override
  public Message getRequestPrototype(MethodDescriptor method) {
    return delegate.getRequestPrototype(method);
  }

  @Override
  public Message getResponsePrototype(MethodDescriptor method) {
    return delegate.getResponsePrototype(method);
  }
}
