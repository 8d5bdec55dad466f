function formatNumber(n) {
  return n.toFixed(2);
}

module.exports = { formatNumber };
