package io.canopy.namenode.rpc;

import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.MethodDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.ServiceDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Message;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;

/**
 * Wraps a protocol's protobuf service so every failed call passes {@link DatabaseErrors} on its way to the client:
 * one place at the edge of the RPC server, whatever call failed. A call that succeeds pays one delegation; the
 * request's fields are looked at only when a call failed with a database error (for the path its message names).
 */
final class DatabaseErrorBoundary implements BlockingService {
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
      Throwable answer = cause == null ? failed : DatabaseErrors.forClient(method.getName(), fields(request), cause);
      if (answer == cause || answer == failed) {
        throw failed;
      }
      throw new ServiceException(answer);
    } catch (RuntimeException failed) {
      Throwable answer = DatabaseErrors.forClient(method.getName(), fields(request), failed);
      if (answer instanceof RuntimeException unchecked) {
        throw unchecked;
      }
      throw new ServiceException(answer);
    }
  }

  /** The request's field values, where {@link DatabaseErrors} looks for the call's path. */
  private static Object[] fields(Message request) {
    return request == null ? null : request.getAllFields().values().toArray();
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
