/// Whether `left` and `right` hold the same bytes, in time that depends only on their
/// lengths, so that the comparison does not reveal where they differ.
func constantTimeEqual(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Bool {
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for (leftByte, rightByte) in zip(left, right) {
        difference |= leftByte ^ rightByte
    }
    return difference == 0
}
