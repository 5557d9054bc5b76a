internal import CLibical

/// Tells the processor which memory will be read soon, for loops that read records in an order
/// the hardware cannot guess (a window's firings in time order, scattered over 45 MB).
public enum CacheHint {
  /// Starts loading the cache line at `address`. It never faults, whatever the address.
  public static func prefetch(_ address: UnsafeRawPointer) {
    clibical_prefetch(address)
  }
}
