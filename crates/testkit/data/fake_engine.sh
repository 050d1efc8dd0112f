# A scripted ATSI engine for the host's tests (run with `sh`, never installed):
#   sh fake_engine.sh NAME [BLACK_TURN…] [-- WHITE_TURN…]
# It answers the handshake as NAME; on its k-th turn (after `startgame` as player 0, or an
# `opmove`) it runs the shell snippet BLACK_TURN k or WHITE_TURN k for its side (past the
# last one it hangs), such as "echo 'move 19z 19y'", "exit 3" or "echo 'resign tired'".
name=$1
shift
nb=0
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  nb=$((nb + 1))
  eval "b_$nb=\$1"
  shift
done
[ "$1" = -- ] && shift
nw=0
while [ $# -gt 0 ]; do
  nw=$((nw + 1))
  eval "w_$nw=\$1"
  shift
done
me=0
n=0
turn() {
  n=$((n + 1))
  if [ "$me" = 0 ]; then eval "t=\${b_$n:-'sleep 60'}"; else eval "t=\${w_$n:-'sleep 60'}"; fi
  eval "$t"
}
while read -r cmd rest; do
  case "$cmd" in
    atsiinit) echo atsiok ;;
    identify) echo "info $name" ;;
    player) me=$rest ;;
    startgame) if [ "$me" = 0 ]; then turn; fi ;;
    opmove) turn ;;
    quit) exit 0 ;;
  esac
done
