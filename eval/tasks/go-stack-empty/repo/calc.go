package stack

// AddTop pops two numbers and pushes their sum.
func AddTop(s *Stack) {
	a := s.Pop()
	b := s.Pop()
	s.Push(a + b)
}
