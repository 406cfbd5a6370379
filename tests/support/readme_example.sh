# Sourced by the tests that compile the README's engine example: writes the
# first ```c block after the marker line to $1, so the README and the tested
# program cannot drift apart.
extract_readme_example() {
  local readme=$1 out=$2
  awk '/<!-- engine-example:/ {armed=1; next}
       armed && /^```c$/ {inside=1; next}
       inside && /^```$/ {exit}
       inside {print}' "$readme" > "$out"
  [ -s "$out" ] || { echo "FAIL: no engine example after the marker in $readme"; return 1; }
}
