package sel

func childMain() int { return 0 }
