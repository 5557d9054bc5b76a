extension Array {
  /// Appends the elements of `other` and empties it. When this array is empty it takes
  /// `other`'s storage whole, so that the elements are not copied and then released one by one.
  mutating func append(taking other: inout [Element]) {
    if isEmpty {
      swap(&self, &other)
    } else {
      append(contentsOf: other)
    }
    other = []
  }
}
