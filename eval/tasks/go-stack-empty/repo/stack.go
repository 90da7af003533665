package stack

// Stack is a stack of ints.
type Stack struct{ items []int }

// Push adds v on top.
func (s *Stack) Push(v int) { s.items = append(s.items, v) }

// Pop removes and returns the top.
func (s *Stack) Pop() int {
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v
}
