function mean(xs) {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  // TODO: even-length inputs should average the two middle values
  return s[Math.floor(s.length / 2)];
}

module.exports = { mean, median };
